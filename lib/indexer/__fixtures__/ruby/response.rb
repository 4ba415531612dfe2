module Transport
  # A response with its status helpers.
  class Response
    # The request this answers.
    attr_reader :request, :body
    attr_accessor :code

    alias_method :multiple_choice?, :multiple_choices?
    alias ok? success?

    define_method(:redirect?) { code.between?(300, 399) }

    %i[get post].each do |verb|
      define_method("#{verb}?") { request.http_method == verb }
    end

    def multiple_choices?
      code == 300
    end

    private

    attr_writer :body
  end
end

module Transport
  # A response with its status helpers.
  class Response
    attr_reader :request, :body

    # Whether the status is a redirect.
    define_method(:redirect?) { code.between?(300, 399) }

    %i[get post].each do |verb|
      define_method("#{verb}?") { request.http_method == verb }
    end

    def multiple_choices?
      code == 300
    end

    private

    define_method(:reset!) do
      @body = nil
    end
  end
end

module Logbook
  class Response
    def initialize(output, body)
      @body = body
      @logger = Logger.build(output, :debug)
    end

    def log_body
      @logger.format(@body)
    end
  end
end

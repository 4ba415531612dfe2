module Logbook
  class Request
    def initialize(path)
      @path = path
    end

    def perform(output)
      logger = Logger.build(output, :info)
      logger.format("GET #{@path}")
    end
  end
end

module Logbook
  module Logger
    # Picks the formatter for the level and wraps the output stream in it.
    def self.build(output, level)
      Formatter.new(output, level || :info)
    end
  end

  class Formatter
    def initialize(output, level)
      @output = output
      @level = level
    end

    def format(line)
      @output.puts("[#{@level}] #{line}")
    end
  end
end

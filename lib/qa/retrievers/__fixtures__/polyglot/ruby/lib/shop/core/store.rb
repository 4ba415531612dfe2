require_relative "util"

module Shop
  # The record store: keeps records by their normalized key.
  class Store
    def initialize
      @rows = {}
    end

    # Persists a record in the store under its normalized key.
    def save(record)
      key = Util.format_key(record.name)
      @rows[key] = record
      key
    end

    # Looks a record up by name.
    def load(name)
      @rows[Util.format_key(name)]
    end
  end
end

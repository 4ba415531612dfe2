# Small helpers shared by the store, the API and the network client.
module Shop
  module Util
    # Normalizes a record name into the key it is stored under.
    def self.format_key(name)
      name.strip.downcase
    end
  end
end

require "shop/core/util"
require_relative "codec"

module Shop
  # The network client: fetches remote records.
  class Client
    # Fetches one remote record by name.
    def fetch(connection, name)
      Codec.decode(connection.get(Util.format_key(name)))
    end

    # Sends an encoded payload.
    def self.send_payload(connection, payload)
      connection.post(payload)
    end
  end
end

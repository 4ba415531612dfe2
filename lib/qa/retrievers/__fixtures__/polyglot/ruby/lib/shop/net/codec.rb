require_relative "client"

module Shop
  # Encoding of records on the wire.
  module Codec
    # Decodes a wire payload into a record.
    def self.decode(data)
      data.force_encoding("UTF-8")
    end

    # Encodes a record and sends it.
    def self.encode_and_send(connection, record)
      Client.send_payload(connection, record.to_s)
    end
  end
end

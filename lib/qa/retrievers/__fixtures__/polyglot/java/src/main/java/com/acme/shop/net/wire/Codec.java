package com.acme.shop.net.wire;

import com.acme.shop.net.Client;

/** Encoding of records on the wire. */
public final class Codec {
  private Codec() {}

  /** Decodes a wire payload into a record. */
  public static String decode(byte[] data) {
    return new String(data);
  }

  /** Encodes a record and sends it. */
  public static int encodeAndSend(String record) {
    return Client.send(record.getBytes());
  }
}

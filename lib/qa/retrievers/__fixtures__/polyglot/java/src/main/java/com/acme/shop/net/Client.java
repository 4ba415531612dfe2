package com.acme.shop.net;

import com.acme.shop.core.Keys;
import com.acme.shop.net.wire.Codec;

/** The network client: fetches remote records. */
public class Client {
  /** Fetches one remote record by name. */
  public String fetch(String name) {
    return Codec.decode(Keys.formatKey(name).getBytes());
  }

  /** Sends an encoded payload. */
  public static int send(byte[] payload) {
    return payload.length;
  }
}

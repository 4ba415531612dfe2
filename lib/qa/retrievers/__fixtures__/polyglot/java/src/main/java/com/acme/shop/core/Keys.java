package com.acme.shop.core;

/** Small helpers shared by the store, the API and the network client. */
public final class Keys {
  private Keys() {}

  /** Normalizes a record name into the key it is stored under. */
  public static String formatKey(String name) {
    return name.trim().toLowerCase();
  }
}

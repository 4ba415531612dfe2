package com.acme.shop.app;

import com.acme.shop.core.Keys;
import com.acme.shop.core.Store;

/** HTTP handlers of the shop. */
public class Api {
  private final Store store = new Store();

  /** Creates the record a request describes. */
  public String handleCreate(String name, String record) {
    return store.save(name, record);
  }

  /** Returns the record a request names. */
  public String handleLookup(String name) {
    return store.load(Keys.formatKey(name));
  }
}

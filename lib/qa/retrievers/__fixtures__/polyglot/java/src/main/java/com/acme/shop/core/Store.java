package com.acme.shop.core;

import java.util.HashMap;
import java.util.Map;

/** The record store: keeps records by their normalized key. */
public class Store {
  private final Map<String, String> rows = new HashMap<>();

  /** Persists a record in the store under its normalized key. */
  public String save(String name, String record) {
    String key = Keys.formatKey(name);
    rows.put(key, record);
    return key;
  }

  /** Looks a record up by name. */
  public String load(String name) {
    return rows.get(Keys.formatKey(name));
  }
}

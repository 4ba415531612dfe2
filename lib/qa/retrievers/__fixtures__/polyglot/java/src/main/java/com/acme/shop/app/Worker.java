package com.acme.shop.app;

import com.acme.shop.core.Store;
import java.util.List;

/** Background jobs that import records in bulk. */
public class Worker {
  private final Store store = new Store();

  /** Saves every record of a batch. */
  public int runBatch(List<String> names) {
    for (String name : names) {
      store.save(name, name);
    }
    return names.size();
  }
}

package com.acme.shop;

import com.acme.shop.app.Api;
import com.acme.shop.core.Keys;
import com.acme.shop.core.Store;

public class StoreTest {
  public void saveNormalizesKey() {
    new Store().save(" A ", "a");
    new Api().handleCreate("b", "b");
    Keys.formatKey("c");
  }
}

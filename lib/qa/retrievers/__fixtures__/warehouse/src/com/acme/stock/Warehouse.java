package com.acme.stock;

import java.util.HashMap;
import java.util.Map;

/** Keeps the stock level of every item, by item code. */
public class Warehouse {
    private final Map<String, StockLevel> levels = new HashMap<>();

    public boolean has(String code) {
        return levels.containsKey(code);
    }
}

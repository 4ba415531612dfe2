package com.acme.stock;

/** How many units of one item are on hand. */
public class StockLevel {
    private final int units;

    public StockLevel(int units) {
        this.units = units;
    }

    public boolean isEmpty() {
        return units == 0;
    }
}

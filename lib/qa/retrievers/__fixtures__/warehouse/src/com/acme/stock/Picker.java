package com.acme.stock;

/** Picks items for an order when the shelf is not empty. */
public class Picker {
    public boolean canPick(StockLevel level, OrderLine line) {
        return line != null && level != null;
    }
}

package com.acme.stock;

/** One line of an order: an item code and a quantity. */
public class OrderLine {
    public final String code;

    public OrderLine(String code) {
        this.code = code;
    }
}

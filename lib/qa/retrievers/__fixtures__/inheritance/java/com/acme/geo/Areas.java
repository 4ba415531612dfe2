package com.acme.geo;

import java.util.List;

public final class Areas {
  private Areas() {}

  public static double total(List<Shape> shapes) {
    double sum = 0;
    for (Shape shape : shapes) sum += shape.area();
    return sum;
  }
}

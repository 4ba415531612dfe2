package com.acme.geo;

public interface Shape {
  double area();
}

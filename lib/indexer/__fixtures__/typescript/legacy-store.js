"use strict";
const fs = require("fs");
const { join, resolve: resolvePath } = require("path");
const logger = require("./logger");

var store = {};

// Reads a JSON file from disk.
function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(join(__dirname, file), "utf8"));
  } catch (err) {
    logger.warn("cannot read " + file);
    throw new Error(`bad json in ${file}`);
  }
}

class Store {
  #path;
  static open = (file) => new Store(file);

  constructor(file) {
    this.#path = resolvePath(file);
    this.items = readJson(file);
  }

  set(key, value) {
    this.items[key] = value;
    store[key] = value;
  }
}

exports.loadPlugin = function (name) {
  return import("./plugins/" + name);
};

const handlers = {
  // Lists every stored key.
  list() {
    return Object.keys(store);
  },
  "drop-all": () => {
    store = {};
  },
  version: readJson("package.json").version,
};

module.exports = { readJson, Store, handlers };

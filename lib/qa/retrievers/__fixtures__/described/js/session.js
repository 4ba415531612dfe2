function SessionStore() {
  this.values = {};
}

SessionStore.prototype.save = function (key, value) {
  this.values[key] = value;
};

module.exports = SessionStore;

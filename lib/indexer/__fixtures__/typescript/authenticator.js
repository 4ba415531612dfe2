// A constructor with methods on its prototype, the way pre-class JavaScript libraries are written.
var Strategy = require('./strategy');

function Authenticator() {
  this._strategies = {};
  this.init();
}

/**
 * Registers a strategy under a name.
 */
Authenticator.prototype.use = function(name, strategy) {
  if (!strategy) { throw new Error('Authentication strategies must have a name'); }
  this._strategies[name] = strategy;
  return this;
};

Authenticator.prototype._strategy = function(name) {
  return this._strategies[name];
};

function SessionStore() { this.sessions = {}; }

SessionStore.prototype = {
  get: function(id) { return this.load(id); },
  destroy(id) { delete this.sessions[id]; }
};

Object.assign(Authenticator.prototype, {
  init() { this.use('session', new Strategy()); },
});

var proto = SessionStore.prototype;
proto.load = function(id) { return this.sessions[id]; };

var req = exports = module.exports = Authenticator;

req.logIn = req.login = function(user, done) {
  done(null, user);
};

// A global patched, not a definition of this file.
Date.now = function() { return 0; };

function helpers() {
  // Inside a function an assignment is no definition.
  req.temp = function() { return 1; };
}

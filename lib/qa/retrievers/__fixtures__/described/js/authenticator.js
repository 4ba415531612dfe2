const connect = require("./connect");
const SessionStore = require("./session");

function Authenticator() {
  this._store = new SessionStore();
  this._framework = connect();
}

Authenticator.prototype.authenticate = function (name) {
  return this._framework.authenticate(this, name);
};

module.exports = Authenticator;

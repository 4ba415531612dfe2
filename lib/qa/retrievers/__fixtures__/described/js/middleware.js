const Authenticator = require("./authenticator");
require("./request");

module.exports = function initialize() {
  const authenticator = new Authenticator();
  return function (req) {
    return authenticator.authenticate(req.strategy);
  };
};

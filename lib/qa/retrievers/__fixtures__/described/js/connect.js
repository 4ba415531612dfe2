module.exports = function connect() {
  return {
    authenticate(passport, name) {
      return { passport, name };
    },
  };
};

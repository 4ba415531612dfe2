function login(user) {
  this.user = user;
}

module.exports = { login };

// An adapter exported only where the platform supports it.
const isXHRAdapterSupported = typeof XMLHttpRequest !== "undefined";

export default isXHRAdapterSupported && function (config) {
  const request = new XMLHttpRequest();
  request.open(config.method, config.url);
  return request;
};

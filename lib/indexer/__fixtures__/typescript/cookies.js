// Cookie helpers: real ones where a document exists, no-ops elsewhere.
const hasDocument = typeof document !== "undefined";

export default hasDocument
  ? {
      write(name, value) {
        document.cookie = `${name}=${encodeURIComponent(value)}`;
      },
      read(name) {
        const match = document.cookie.match(new RegExp(`(^|;\\s*)${name}=([^;]*)`));
        return match ? decodeURIComponent(match[2]) : null;
      },
    }
  : {
      write() {},
      read() {
        return null;
      },
    };

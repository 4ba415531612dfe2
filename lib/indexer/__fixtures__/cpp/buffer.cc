#include "buffer.h"

namespace fmt {

template <typename T> void detail::buffer<T>::grow(size_t size) {
  if (size > max_size()) throw detail::format_error("buffer too large");
  data_ = allocate(size);
  capacity_ = size;
}

std::string to_string(detail::buffer<char>& buf) {
  buf.push_back('\0');
  return std::string(buf.data());
}

}  // namespace fmt

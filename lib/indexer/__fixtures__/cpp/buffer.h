#pragma once
#include <string>

namespace fmt {
namespace detail {

// A growable character buffer.
template <typename T> class buffer : public base<T> {
 public:
  explicit buffer(size_t capacity) : capacity_(capacity) {}
  void push_back(T value) {
    if (size_ == capacity_) grow(size_ + 1);
    data_[size_++] = value;
  }
  void grow(size_t size);

 private:
  size_t size_ = 0;
  size_t capacity_;
  T* data_ = nullptr;
};

struct format_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace detail
}  // namespace fmt

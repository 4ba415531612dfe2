// Out-of-line members of tally::counter, compiled inline when the library is header-only.
#pragma once

#include "counter.h"

namespace tally {

TALLY_INLINE counter::counter(const counter &other)
    : name_(other.name_),
      total_(other.total_) {}

TALLY_INLINE counter &counter::operator=(counter other) TALLY_NOEXCEPT {
    std::swap(total_, other.total_);
    return *this;
}

void TALLY_INLINE counter::add(size_t n) { total_ += n; }

TALLY_INLINE
size_t counter::total() const { return total_; }

TALLY_INLINE std::shared_ptr<counter> counter::clone(std::string name) {
    auto copy = std::make_shared<counter>(*this);
    copy->name_ = std::move(name);
    return copy;
}

} // namespace tally

// A counter whose declarations carry export and inline macros of a header-only library.
#pragma once

#include <memory>
#include <string>

namespace tally {

class TALLY_API counter {
public:
    TALLY_CONSTEXPR counter(std::string name) : name_(std::move(name)) {}
    void add(size_t n);
    size_t total() const;
    std::shared_ptr<counter> clone(std::string name);

private:
    std::string name_;
    size_t total_ = 0;
};

template <typename T> class registry;

TALLY_BEGIN_EXPORT
template <typename T> class registry {
public:
    T *find(const std::string &name) { return nullptr; }
};

} // namespace tally

#ifdef TALLY_HEADER_ONLY
#include "counter-inl.h"
#endif

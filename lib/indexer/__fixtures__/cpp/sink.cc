// Thread-safety annotations and attributes after the parameters, as glog and abseil write them.
#include "sink.h"

namespace journal {

static Mutex sink_mutex;

// L >= sink_mutex (callers must hold it).
void Sink::SendToLog() EXCLUSIVE_LOCKS_REQUIRED(sink_mutex) {
  Flush();
  WriteToFile(buffer_);
}

void Sink::Flush() LOCKS_EXCLUDED(sink_mutex) __attribute__((noinline)) {
  MutexLock lock(&sink_mutex);
  buffer_.clear();
}

size_t Sink::Pending() const noexcept(true) ABSL_MUST_USE_RESULT {
  return buffer_.size();
}

bool Sink::Reserve(size_t n) GUARDED_BY(sink_mutex);

}  // namespace journal

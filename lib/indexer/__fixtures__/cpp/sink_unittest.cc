// Tests of the log sink.
#include <gtest/gtest.h>

#include "sink.h"

namespace journal {

// A sink waits until every message is written.
TEST(LogSink, WaitTillSent) {
  Sink sink;
  sink.SendToLog("hello");
  EXPECT_EQ(0, sink.Pending());
}

TEST_F(SinkFixture, FlushesOnExit) {
  Flush();
}

}  // namespace journal

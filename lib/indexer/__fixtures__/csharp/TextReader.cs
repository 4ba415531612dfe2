// A reader whose base list and statements are split by preprocessor conditionals.
using System;

namespace Tally.Json
{
    public partial class TextReader
#if HAVE_ASYNC_DISPOSABLE
        : IAsyncDisposable
#endif
    {
        [Obsolete]
        public string Name { get; set; }

        private void ParseString(char quote, ReadType readType)
        {
            if (readType == ReadType.ReadAsBytes)
            {
                SetToken(quote);
            }
#if HAVE_DATE_TIME_OFFSET
            else if (readType == ReadType.ReadAsDateTimeOffset)
            {
                SetToken(quote);
            }
#endif
            else
            {
                ClearRecentString();
            }
        }

        private void ParseNumber(ReadType readType)
        {
            ShiftBufferIfNeeded();
            throw new JsonReaderException("Unexpected character while parsing number.");
        }
    }
}

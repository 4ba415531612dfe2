using System;
using Serilog.Events;
using Sinks = Serilog.Core.Sinks;

namespace Serilog.Core;

/// <summary>The core logging pipeline.</summary>
[Serializable]
public sealed class Logger : ILogger, IDisposable
{
    readonly ILogEventSink _sink;
    int _written;

    public Logger(ILogEventSink sink)
    {
        _sink = sink ?? throw new ArgumentNullException(nameof(sink), "A sink is required");
    }

    public bool IsEnabled => _sink != null;

    /// <summary>Writes one event.</summary>
    public void Write(LogEvent logEvent)
    {
        if (!IsEnabled) return;
        try
        {
            Dispatch(logEvent);
            _written++;
        }
        catch (Exception ex)
        {
            SelfLog.WriteLine("Failed to write {0}", ex);
            Log.Error(ex, "Event dropped by {Sink}", _sink);
        }
    }

    void Dispatch(LogEvent logEvent) => _sink.Emit(logEvent);

    public void Dispose() { }
}

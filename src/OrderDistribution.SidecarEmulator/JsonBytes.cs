using System.Buffers;
using System.Text.Json;

namespace OrderDistribution.SidecarEmulator;

/// <summary>
/// JSON written straight to bytes, as the sidecar's own encoder does: the emulator's cost stays small beside the apps'.
/// </summary>
internal static class JsonBytes
{
    public static ReadOnlyMemory<byte> Write(Action<Utf8JsonWriter> write)
    {
        var buffer = new ArrayBufferWriter<byte>(1024);
        using (var json = new Utf8JsonWriter(buffer))
        {
            write(json);
        }

        return buffer.WrittenMemory;
    }
}

using System.Text;
using System.Text.Json;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// A JSON stream read a token or a value at a time through a buffer that holds only what is being read, so that an
/// orders file's array (150,000 orders are 66 MB) is never held whole: a value is handed on once it is whole.
/// </summary>
internal sealed class JsonChunkReader(Stream stream)
{
    private byte[] _buffer = new byte[64 * 1024];
    private int _start;
    private int _end;
    private bool _begun;
    private bool _final;
    private JsonReaderState _state;

    /// <summary>The next token's type, left to be read.</summary>
    public JsonTokenType Peek()
    {
        while (true)
        {
            var reader = new Utf8JsonReader(Unread(), _final, _state);
            if (reader.Read())
            {
                return reader.TokenType;
            }

            More();
        }
    }

    /// <summary>The next token: its type, and a property name's, a string's or a number's text.</summary>
    public (JsonTokenType Type, string? Text) Read()
    {
        while (true)
        {
            var reader = new Utf8JsonReader(Unread(), _final, _state);
            if (reader.Read())
            {
                var token = (reader.TokenType, reader.TokenType switch
                {
                    JsonTokenType.PropertyName or JsonTokenType.String => reader.GetString(),
                    JsonTokenType.Number => Encoding.UTF8.GetString(reader.ValueSpan),
                    _ => null,
                });
                Consume(ref reader);
                return token;
            }

            More();
        }
    }

    /// <summary>The next value (an object or an array whole, or a single token), handed to
    /// <paramref name="parse"/> as its bytes.</summary>
    public T ReadValue<T>(Func<ReadOnlySpan<byte>, T> parse)
    {
        while (true)
        {
            var unread = Unread();
            var reader = new Utf8JsonReader(unread, _final, _state);
            if (reader.Read())
            {
                var begin = (int)reader.TokenStartIndex;
                if (reader.TokenType is not (JsonTokenType.StartObject or JsonTokenType.StartArray) || reader.TrySkip())
                {
                    var value = parse(unread[begin..(int)reader.BytesConsumed]);
                    Consume(ref reader);
                    return value;
                }
            }

            More();
        }
    }

    private ReadOnlySpan<byte> Unread()
    {
        if (!_begun)
        {
            _begun = true;
            Fill();
            if (_buffer.AsSpan(0, _end).StartsWith(Encoding.UTF8.Preamble))
            {
                _start = Encoding.UTF8.Preamble.Length;
            }
        }

        return _buffer.AsSpan(_start, _end - _start);
    }

    private void Consume(ref Utf8JsonReader reader)
    {
        _start += (int)reader.BytesConsumed;
        _state = reader.CurrentState;
    }

    private void More()
    {
        if (_final)
        {
            throw new JsonException("The JSON ends before its value does.");
        }

        Fill();
    }

    /// <summary>Keeps what is not read yet at the buffer's start (a larger buffer if that is all of it), and reads
    /// on.</summary>
    private void Fill()
    {
        _buffer.AsSpan(_start, _end - _start).CopyTo(_buffer);
        _end -= _start;
        _start = 0;
        if (_end == _buffer.Length)
        {
            Array.Resize(ref _buffer, _buffer.Length * 2);
        }

        var read = stream.Read(_buffer, _end, _buffer.Length - _end);
        _end += read;
        _final = read == 0;
    }
}

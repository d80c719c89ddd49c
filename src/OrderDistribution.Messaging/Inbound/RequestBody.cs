using System.Buffers;
using System.Text.Json;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// Reads the body of a request of the sidecar without throwing: what cannot be read is named, so that the request is
/// answered as the route answers what it cannot read, never 400 or 500.
/// </summary>
internal static class RequestBody
{
    /// <returns>
    /// The first <paramref name="keep"/> bytes of the body (one binding message) and its whole length, or why there
    /// are none: the caller hung up. A longer body is read to its end without being held, past the server's request
    /// limit, so that the sidecar reads the answer rather than a closed connection.
    /// </returns>
    public static async Task<(byte[]? Bytes, long Length, string? Unreadable)> ReadMessageAsync(
        HttpRequest request, long keep)
    {
        if (request.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } limit)
        {
            limit.MaxRequestBodySize = null;
        }

        var chunk = ArrayPool<byte>.Shared.Rent(64 * 1024);
        try
        {
            using var kept = new MemoryStream();
            long length = 0;
            int read;
            while ((read = await request.Body.ReadAsync(chunk, request.HttpContext.RequestAborted)) > 0)
            {
                kept.Write(chunk, 0, (int)Math.Clamp(keep - length, 0, read));
                length += read;
            }

            return (kept.ToArray(), length, null);
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or BadHttpRequestException)
        {
            return (null, 0, $"the body could not be read ({e.Message})");
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(chunk);
        }
    }

    /// <returns>The document, or why there is none: not JSON, too large, or the caller hung up.</returns>
    public static async Task<(JsonDocument? Document, string? Unreadable)> ReadJsonAsync(HttpRequest request)
    {
        try
        {
            return (await JsonDocument.ParseAsync(request.Body, default, request.HttpContext.RequestAborted), null);
        }
        catch (JsonException e)
        {
            return (null, $"the body is not JSON ({e.Message})");
        }
        catch (BadHttpRequestException e) when (e.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            return (null,
                "the body is larger than any request of Messaging:MaxMessagesCount messages of " +
                "Messaging:MaxMessageBytes");
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or BadHttpRequestException)
        {
            return (null, $"the body could not be read ({e.Message})");
        }
    }
}

using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// A body whose reading fails with an I/O error (the connection reset half way) is answered like any request that is
/// none, with one warning saying it could not be read: never an exception out of the app, whose 500 the sidecar
/// would answer by delivering the whole batch again.
/// </summary>
public sealed class UnreadableBodyTests : IAsyncLifetime
{
    private EntryPointsHost _app = null!;

    public async ValueTask InitializeAsync() => _app = await EntryPointsHost.StartAsync(
        new TakingHandler(), services => services.AddSingleton<IStartupFilter, ResetBodies>());

    [Fact]
    public async Task A_binding_body_cut_by_an_IO_error_is_answered_503_so_that_the_broker_keeps_it()
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-input", BulkRequest.Json("{}"));

        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        AssertOneWarningThatItCouldNotBeRead("503");
    }

    [Fact]
    public async Task A_single_body_cut_by_an_IO_error_is_answered_with_a_status_not_an_exception()
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-single", BulkRequest.Json("{}"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("DROP", await BulkRequest.StatusAsync(response));
        AssertOneWarningThatItCouldNotBeRead("DROP");
    }

    [Fact]
    public async Task A_bulk_body_cut_by_an_IO_error_is_answered_404_not_500()
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json("{}"));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        AssertOneWarningThatItCouldNotBeRead("404");
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();

    private void AssertOneWarningThatItCouldNotBeRead(string answer)
    {
        var line = Assert.Single(_app.Logs.AtLeast(LogLevel.Warning));
        Assert.Equal(LogLevel.Warning, line.Level);
        Assert.Contains($"answered {answer}", line.Message, StringComparison.Ordinal);
        Assert.Contains("could not be read (connection reset by peer)", line.Message, StringComparison.Ordinal);
        Assert.Empty(_app.Handler.Orders);
    }

    /// <summary>Every request's body fails as a reset connection does: an <see cref="IOException"/>.</summary>
    private sealed class ResetBodies : IStartupFilter
    {
        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
        {
            app.Use((context, nextMiddleware) =>
            {
                context.Request.Body = new ResetStream();
                return nextMiddleware(context);
            });
            next(app);
        };
    }

    private sealed class ResetStream : Stream
    {
        public override bool CanRead => true;
        public override bool CanSeek => false;
        public override bool CanWrite => false;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => 0; set => throw new NotSupportedException(); }
        public override void Flush() { }
        public override int Read(byte[] buffer, int offset, int count) =>
            throw new IOException("connection reset by peer");
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            throw new IOException("connection reset by peer");
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}

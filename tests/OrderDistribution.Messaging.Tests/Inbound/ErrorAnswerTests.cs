using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// What a request the app fails on is answered: a problem, with nothing of the code that failed.
/// </summary>
public sealed class ErrorAnswerTests : RecordingSidecarTests
{
    [Fact]
    public async Task An_error_answer_carries_no_stack_trace_even_in_Development()
    {
        var options = new UnreadableOptions();
        await using var app = await EntryPointsHost.ForwardingAsync(
            Sidecar.Address, Environments.Development,
                services => services.Replace(ServiceDescriptor.Singleton<IOptions<MessagingOptions>>(options)));
        var client = app.Client;
        options.FailFromNow();

        var response = await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json("""{"entries":[]}"""));

        Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var body = await response.Content.ReadAsStringAsync();
        Assert.DoesNotContain("UnreadableOptions", body, StringComparison.Ordinal);
        Assert.DoesNotContain(" at ", body, StringComparison.Ordinal);
    }

    /// <summary>
    /// Settings that can be read while the app starts (its routes, its warm-up) and fail every request after that.
    /// </summary>
    private sealed class UnreadableOptions : IOptions<MessagingOptions>
    {
        private volatile bool _failing;

        public MessagingOptions Value => _failing
            ? throw new InvalidOperationException("UnreadableOptions: the settings cannot be read")
            : new MessagingOptions();

        public void FailFromNow() => _failing = true;
    }
}

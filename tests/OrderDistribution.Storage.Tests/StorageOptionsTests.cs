using System.ComponentModel.DataAnnotations;

namespace OrderDistribution.Storage.Tests;

/// <summary>Which store settings an app refuses at start, and what the refusal names.</summary>
public sealed class StorageOptionsTests
{
    [Theory]
    [InlineData("UseDevelopmentStorage=true", null)]
    [InlineData(null, "https://account.blob.core.windows.net")]
    [InlineData(null, "http://127.0.0.1:10000/devstoreaccount1")]
    public void One_connection_string_or_one_http_account_url_is_taken(string? connectionString, string? accountUrl) =>
        Assert.Empty(Refusals(new StorageOptions
        {
            ConnectionString = connectionString,
            AccountUrl = accountUrl is null ? null : new Uri(accountUrl, UriKind.RelativeOrAbsolute),
        }));

    [Theory]
    [InlineData(null, null, "Set exactly one of Storage:ConnectionString")]
    [InlineData(" ", null, "Set exactly one of Storage:ConnectionString")]
    [InlineData("UseDevelopmentStorage=true", "https://account.blob.core.windows.net",
        "Set exactly one of Storage:ConnectionString")]
    [InlineData(null, "ftp://account.blob.core.windows.net", "Storage:AccountUrl must be an absolute http(s) URL")]
    [InlineData(null, "/devstoreaccount1", "Storage:AccountUrl must be an absolute http(s) URL")]
    [InlineData("not a connection string", null, "Storage:ConnectionString is not a storage connection string")]
    public void A_store_setting_that_cannot_work_is_refused_naming_it(
        string? connectionString, string? accountUrl, string refusal)
    {
        var refusals = Refusals(new StorageOptions
        {
            ConnectionString = connectionString,
            AccountUrl = accountUrl is null ? null : new Uri(accountUrl, UriKind.RelativeOrAbsolute),
        });

        Assert.StartsWith(refusal, Assert.Single(refusals), StringComparison.Ordinal);
    }

    [Fact]
    public void A_request_timeout_that_is_not_positive_is_refused() =>
        Assert.Equal("Storage:RequestTimeout must be positive.", Assert.Single(Refusals(new StorageOptions
        {
            ConnectionString = "UseDevelopmentStorage=true",
            RequestTimeout = TimeSpan.Zero,
        })));

    private static List<string?> Refusals(StorageOptions options)
    {
        var results = new List<ValidationResult>();
        Validator.TryValidateObject(options, new ValidationContext(options), results, validateAllProperties: true);
        return [.. results.Select(r => r.ErrorMessage)];
    }
}

using System.ComponentModel.DataAnnotations;

namespace OrderDistribution.Messaging.Tests;

/// <summary>Settings whose full bulks the app could not read are refused at start, and none that it could.</summary>
public sealed class MessagingOptionsTests
{
    /// <summary>8 bulks of 100,662,144-byte messages make requests of exactly 1 GiB, the most the app reads.</summary>
    [Theory]
    [InlineData(100_662_144, true)]
    [InlineData(100_662_147, false)]
    public void Bulks_up_to_what_the_app_can_read_are_accepted_and_larger_ones_refused(int maxMessageBytes,
        bool accepted)
    {
        var options = new MessagingOptions { MaxMessagesCount = 8, MaxMessageBytes = maxMessageBytes };
        var results = new List<ValidationResult>();

        var valid = Validator.TryValidateObject(options, new ValidationContext(options), results, true);

        Assert.Equal(accepted, valid);
        Assert.Equal(accepted ? 1L << 30 : (1L << 30) + 32, options.MaxRequestBytes);
        Assert.Equal(accepted ? [] : ["MaxMessagesCount", "MaxMessageBytes"],
            results.SelectMany(r => r.MemberNames));
    }
}

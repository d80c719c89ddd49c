using System.ComponentModel;
using Microsoft.Extensions.Configuration;

namespace OrderDistribution.Messaging.Tests;

public sealed class MessagingModelsTests
{
    [Theory]
    [InlineData(MessagingModel.Bindings, "bindings")]
    [InlineData(MessagingModel.PubSubSingle, "pubsub-single")]
    [InlineData(MessagingModel.PubSubBulk, "pubsub-bulk")]
    public void Each_model_has_one_spelling_that_reads_back_as_the_model(MessagingModel model, string spelling)
    {
        Assert.Equal(spelling, model.Text());
        Assert.Equal(model, MessagingModels.Parse(spelling));
    }

    [Theory]
    [InlineData(MessagingModel.Bindings, false)]
    [InlineData(MessagingModel.PubSubSingle, true)]
    [InlineData(MessagingModel.PubSubBulk, true)]
    public void Only_the_two_pubsub_models_move_orders_through_the_pubsub_component(
        MessagingModel model, bool pubSub) =>
        Assert.Equal(pubSub, model.IsPubSub());

    [Fact]
    public void A_model_converts_to_text_and_to_nothing_else()
    {
        var converter = TypeDescriptor.GetConverter(typeof(MessagingModel));

        Assert.True(converter.CanConvertTo(typeof(string)));
        Assert.False(converter.CanConvertTo(typeof(int)));
    }

    [Fact]
    public void Every_model_is_spelled_and_the_spellings_list_them_in_order() =>
        Assert.Equal(Enum.GetValues<MessagingModel>().Select(m => m.Text()), MessagingModels.Spellings);

    [Theory]
    [InlineData("bulk")]
    [InlineData("single")]
    [InlineData("pubsub")]
    [InlineData("PubSubBulk")]
    [InlineData("Pubsub-Bulk")]
    [InlineData("")]
    public void Any_other_text_is_refused_with_the_three_spellings_named(string text)
    {
        var refused = Assert.Throws<FormatException>(() => MessagingModels.Parse(text));
        Assert.Contains("bindings, pubsub-single or pubsub-bulk", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_configuration_binder_reads_the_hyphenated_spelling()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection([new("Messaging:Model", "pubsub-single")])
            .Build();

        Assert.Equal(MessagingModel.PubSubSingle, configuration.GetSection("Messaging").Get<MessagingOptions>()!.Model);
        Assert.Equal("pubsub-single",
            TypeDescriptor.GetConverter(typeof(MessagingModel)).ConvertToInvariantString(MessagingModel.PubSubSingle));
    }

    [Fact]
    public void The_configuration_binder_refuses_another_value_naming_the_key_and_the_spellings()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection([new("Messaging:Model", "bulk")]).Build();

        var refused = Assert.Throws<InvalidOperationException>(() =>
            configuration.GetSection("Messaging").Get<MessagingOptions>());
        Assert.Contains("Messaging:Model", refused.Message, StringComparison.Ordinal);
        Assert.Contains("bindings, pubsub-single or pubsub-bulk", refused.InnerException!.Message,
            StringComparison.Ordinal);
    }
}

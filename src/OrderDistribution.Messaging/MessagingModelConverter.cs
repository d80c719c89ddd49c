using System.ComponentModel;
using System.Globalization;

namespace OrderDistribution.Messaging;

/// <summary>
/// Lets the configuration binder read <see cref="MessagingModel"/> in its one spelling (<c>pubsub-bulk</c>), which
/// enum parsing would refuse; any other text fails the binding with the three spellings named.
/// </summary>
public sealed class MessagingModelConverter : TypeConverter
{
    public override bool CanConvertFrom(ITypeDescriptorContext? context, Type sourceType) =>
        sourceType == typeof(string) || base.CanConvertFrom(context, sourceType);

    public override object? ConvertFrom(ITypeDescriptorContext? context, CultureInfo? culture, object value) =>
        value is string text ? MessagingModels.Parse(text) : base.ConvertFrom(context, culture, value);

    public override object? ConvertTo(ITypeDescriptorContext? context, CultureInfo? culture, object? value,
        Type destinationType) =>
        value is MessagingModel model && destinationType == typeof(string)
            ? model.Text()
            : base.ConvertTo(context, culture, value, destinationType);
}

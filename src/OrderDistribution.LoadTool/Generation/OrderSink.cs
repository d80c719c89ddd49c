using System.Collections;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// The orders array of a file as the serializer fills it: each order is checked and handed on as soon as it is read,
/// and none is kept. The serializer's own collection reading streams, so the array is never held whole.
/// </summary>
internal sealed class OrderSink(Action<Order> each) : ICollection<Order>, ICollection
{
    public int Count { get; private set; }

    public bool IsReadOnly => false;

    // The serializer counts a collection through ICollection to name the element it failed on ($.Orders[n]).
    bool ICollection.IsSynchronized => false;

    object ICollection.SyncRoot => this;

    /// <exception cref="InvalidOrderException">The order lacks a field it needs.</exception>
    public void Add(Order item)
    {
        try
        {
            OrderJson.Validate(item);
        }
        catch (InvalidOrderException e)
        {
            throw new InvalidDataException(
                $"The orders file is not a valid set of orders: $.Orders[{Count}]: {e.Message}", e);
        }

        Count++;
        each(item);
    }

    public void Clear() => throw new NotSupportedException();

    public bool Contains(Order item) => throw new NotSupportedException();

    public void CopyTo(Order[] array, int arrayIndex) => throw new NotSupportedException();

    void ICollection.CopyTo(Array array, int index) => throw new NotSupportedException();

    public bool Remove(Order item) => throw new NotSupportedException();

    public IEnumerator<Order> GetEnumerator() => Enumerable.Empty<Order>().GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}

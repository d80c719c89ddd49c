namespace OrderDistribution.TestSupport;

public static class RepositoryRoot
{
    /// <summary>The folder of OrderDistribution.slnx above the running test binaries.</summary>
    public static string Path { get; } = Find();

    private static string Find()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(System.IO.Path.Combine(folder.FullName, "OrderDistribution.slnx")))
            {
                return folder.FullName;
            }
        }

        throw new InvalidOperationException(
            "The repository root (OrderDistribution.slnx) is not above the test binaries.");
    }
}

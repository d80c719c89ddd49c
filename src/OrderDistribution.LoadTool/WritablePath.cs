namespace OrderDistribution.LoadTool;

/// <summary>
/// Whether the tool can write a file where a path says, asked before it starts the work that ends in the write.
/// </summary>
public static class WritablePath
{
    /// <summary>
    /// Why a file cannot be written at <paramref name="path"/> (its folder made if missing), or null when it can.
    /// </summary>
    public static string? WhyNot(string path)
    {
        string full;
        try
        {
            full = Path.GetFullPath(path);
        }
        catch (Exception e) when (e is ArgumentException or NotSupportedException or PathTooLongException)
        {
            return "not a valid path";
        }

        if (Directory.Exists(full))
        {
            return "a folder, where a file is wanted";
        }

        var folder = Path.GetDirectoryName(full);
        while (folder is not null && !Directory.Exists(folder))
        {
            if (File.Exists(folder))
            {
                return $"{folder} is a file, not a folder";
            }

            folder = Path.GetDirectoryName(folder);
        }

        if (folder is null)
        {
            return "no folder of it exists";
        }

        try
        {
            if (File.Exists(full))
            {
                using var existing = new FileStream(full, FileMode.Open, FileAccess.Write);
            }
            else
            {
                var name = Path.Combine(folder, $".order-load-{Guid.NewGuid():N}");
                using var probe = new FileStream(
                    name, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1, FileOptions.DeleteOnClose);
            }
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            return File.Exists(full)
                ? "cannot be written (no permission)"
                : $"cannot write in {folder} (no permission)";
        }

        return null;
    }
}

namespace OrderDistribution.TestSupport;

/// <summary>
/// A folder of its own under the temp directory, named from a prefix, removed with all it holds when disposed: a
/// test's files do not outlive it, passed or failed.
/// </summary>
public sealed class TempFolder : IDisposable
{
    private const int DeleteAttempts = 5;

    public TempFolder(string prefix) => Path = Directory.CreateTempSubdirectory(prefix).FullName;

    public string Path { get; }

    public void Dispose()
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                Directory.Delete(Path, recursive: true);
                return;
            }
            catch (DirectoryNotFoundException)
            {
                return;
            }
            catch (Exception held) when (held is IOException or UnauthorizedAccessException)
            {
                // A child process (Azurite, a killed tool) may still be writing into it as it ends; else it is left.
                if (attempt == DeleteAttempts)
                {
                    return;
                }

                Thread.Sleep(200);
            }
        }
    }
}

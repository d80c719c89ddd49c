using OrderDistribution.LoadTool;
using Spectre.Console;

return await LoadToolCommands.InvokeAsync(AnsiConsole.Console, Console.Error, args);

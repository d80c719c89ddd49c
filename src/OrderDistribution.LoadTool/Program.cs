using OrderDistribution.LoadTool.Commands;

return await LoadToolCommands.RunProgramAsync(args);

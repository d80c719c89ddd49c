using OrderDistribution.Distributor;
using OrderDistribution.ServiceDefaults;

var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddDistributor();

var app = builder.Build();
app.UseServiceDefaults();
app.MapDistributorEndpoints();
app.Run();

public partial class Program;

// Types the modules share with main.bicep.

@export()
@description('Tags of a resource: names to string values')
type resourceTags = {
  *: string
}

@export()
@description('A plain environment variable of a container (no secretRef)')
type environmentVariable = {
  name: string
  value: string
}

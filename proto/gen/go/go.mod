// Generated Go stubs of the Slidewright API (`npm run gen:stubs`). Import path:
// slidewright/proto/gen/go/slidewright/v1 (package slidewrightv1); use it with a
// replace directive, as examples/go/go.mod does.
module slidewright/proto/gen/go

go 1.19

require (
	google.golang.org/genproto v0.0.0-20200526211855-cb27e3aa2013
	google.golang.org/grpc v1.33.3
	google.golang.org/protobuf v1.28.1
)

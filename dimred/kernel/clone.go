package kernel

import "reflect"

// Clone returns a deep copy of k: the structs its pointers point to, and
// the elements of its slices (a Sum's terms), are copied, so that setting
// the copy's parameters (SetParams) leaves k as it was. Methods that fit a
// caller's kernel (dimred.GPLVM, dimred.GPLVMScore) optimise a Clone: the
// caller's kernel keeps its starting hyperparameters, and a second fit
// starts where the first did. Maps, funcs and channels are shared.
func Clone[K any](k K) K {
	var out K
	deepCopy(reflect.ValueOf(&out).Elem(), reflect.ValueOf(&k).Elem())
	return out
}

// deepCopy sets dst (settable, of src's type) to a deep copy of src.
func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		deepCopy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		deepCopy(e, src.Elem())
		dst.Set(e)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			deepCopy(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			deepCopy(dst.Index(i), src.Index(i))
		}
	case reflect.Struct:
		// Copy the whole value first (unexported fields included), then
		// deepen the exported fields that can be set.
		dst.Set(src)
		for i := 0; i < src.NumField(); i++ {
			if dst.Field(i).CanSet() {
				deepCopy(dst.Field(i), src.Field(i))
			}
		}
	default:
		dst.Set(src)
	}
}

//! `#[testkit::db_test]`: the shape of `#[testkit::db_test]`
//! (`async fn name(db: PgPool)`), but the database is cloned from a migrated template
//! (`testkit::database`) instead of being migrated for every test.

use proc_macro::TokenStream;
use quote::quote;
use syn::{ItemFn, ReturnType, parse_macro_input};

/// Turns `async fn name(db: PgPool) { .. }` into a `#[test]` that runs it on a fresh
/// database of its own (see `testkit::database::run`). Other attributes (`#[ignore]`,
/// `#[should_panic]`, doc comments) stay on the test.
#[proc_macro_attribute]
pub fn db_test(args: TokenStream, item: TokenStream) -> TokenStream {
    if !args.is_empty() {
        return syn::Error::new(
            proc_macro2::Span::call_site(),
            "#[testkit::db_test] takes no arguments: every database is cloned from schema::MIGRATOR's template",
        )
        .to_compile_error()
        .into();
    }
    let test = parse_macro_input!(item as ItemFn);
    if let Err(error) = check_shape(&test) {
        return error.to_compile_error().into();
    }
    let attrs = &test.attrs;
    let vis = &test.vis;
    let name = &test.sig.ident;
    let mut body = test.clone();
    body.attrs.clear();
    body.vis = syn::Visibility::Inherited;
    quote! {
        #[::core::prelude::v1::test]
        #(#attrs)*
        #vis fn #name() {
            #body
            ::testkit::database::run(
                ::core::concat!(::core::module_path!(), "::", ::core::stringify!(#name)),
                #name,
            );
        }
    }
    .into()
}

/// The one shape the suites use: `async fn name(db: PgPool)` returning nothing.
fn check_shape(test: &ItemFn) -> syn::Result<()> {
    let sig = &test.sig;
    if sig.asyncness.is_none() {
        return Err(syn::Error::new_spanned(
            sig.fn_token,
            "#[testkit::db_test] needs an async fn",
        ));
    }
    if sig.inputs.len() != 1 {
        return Err(syn::Error::new_spanned(
            &sig.inputs,
            "#[testkit::db_test] needs exactly one argument, the pool: `db: PgPool`",
        ));
    }
    if !matches!(sig.output, ReturnType::Default) {
        return Err(syn::Error::new_spanned(
            &sig.output,
            "#[testkit::db_test] tests return nothing: assert or panic instead",
        ));
    }
    Ok(())
}
